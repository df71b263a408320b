import HummingbirdWSClient
import BenchBaseline
print("x")
