import BenchCommandLine
import BenchSuite

BenchMain.run(GateCommand.self, usageExitCode: 2)
