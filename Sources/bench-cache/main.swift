import BenchCommandLine
import BenchSuite

BenchMain.run(CacheCommand.self)
