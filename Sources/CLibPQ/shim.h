#ifndef STOREGATE_CLIBPQ_SHIM_H
#define STOREGATE_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
