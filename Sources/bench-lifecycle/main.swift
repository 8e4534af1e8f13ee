import BenchCommandLine
import BenchSuite

LifecycleCommand.runChildIfAsked()
BenchMain.run(LifecycleCommand.self)
