import BenchCommandLine
import BenchSuite

BenchMain.run(AtomicsCommand.self)
