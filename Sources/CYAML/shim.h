#ifndef AGG_CYAML_SHIM_H
#define AGG_CYAML_SHIM_H
#include <yaml.h>
#endif
