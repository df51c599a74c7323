// The header is the module: SwiftPM needs one source file per C target.
#include "CLinux.h"
