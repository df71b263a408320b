#include "BenchBaseline.h"
