import BenchCommandLine
import BenchSuite

ReadinessCommand.runProbeChildIfAsked()
BenchMain.run(ReadinessCommand.self)
