// Empty on purpose: the C++ bridge targets include <opencv2/...> themselves (see module.modulemap).
