/* PTHREAD_SYSTEM_SCHED_SUPPORTED: exits 0 when a thread can be created with
   PTHREAD_SCOPE_SYSTEM (configure.ac: "if PTHREAD_SCOPE_SYSTEM is supported"). */
#include <stdio.h>
#include <pthread.h>

void *foo(void *parm) {
    return NULL;
}

int main(void) {
    pthread_attr_t attr;
    pthread_t id;
    if (pthread_attr_init(&attr)) return (-1);
    if (pthread_attr_setscope(&attr, PTHREAD_SCOPE_SYSTEM)) return (-1);
    if (pthread_create(&id, &attr, foo, NULL)) return (-1);
    return (0);
}
