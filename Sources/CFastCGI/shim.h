#ifndef STOREGATE_CFASTCGI_SHIM_H
#define STOREGATE_CFASTCGI_SHIM_H
#include <fcgiapp.h>
/* The front's idle workers wait for connections with epoll, which Glibc's Swift module leaves out. */
#include <sys/epoll.h>
#endif
