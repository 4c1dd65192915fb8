/* POSIX_SEMAPHORES_NOT_ENABLED: exits 0 when a named POSIX semaphore can be created
   (configure.ac: "whether POSIX semaphores are enabled"; FreeBSD <= 7.2 needed a kernel module). */
#include <unistd.h>
#include <fcntl.h>
#include <stdio.h>
#include <semaphore.h>
#include <sys/stat.h>

int main(void) {
  sem_t *a = sem_open("/autoconf", O_CREAT, S_IRUSR|S_IWUSR, 0);
  if (a == SEM_FAILED) {
    perror("sem_open");
    return 1;
  }
  sem_close(a);
  sem_unlink("/autoconf");
  return 0;
}
