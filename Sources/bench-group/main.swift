import BenchCommandLine
import BenchSuite

BenchMain.run(GroupCommand.self)
