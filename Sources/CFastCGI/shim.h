#ifndef STOREGATE_CFASTCGI_SHIM_H
#define STOREGATE_CFASTCGI_SHIM_H
#include <fcgiapp.h>
#endif
