import ArgumentParser
import OcularStudio
print("x")
