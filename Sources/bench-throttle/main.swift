import BenchCommandLine
import BenchSuite

BenchMain.run(ThrottleCommand.self)
