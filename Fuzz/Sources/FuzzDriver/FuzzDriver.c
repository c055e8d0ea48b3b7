// Only the header matters; SwiftPM needs one source file per C target.
#include "FuzzDriver.h"
