/* HAVE_CHFLAGS: exits 0 when chflags() exists and works (configure.ac: "for chflags";
   on Tru64 it is present but calling it exits the process). */
#include <sys/stat.h>
#include <unistd.h>
int main(int argc, char *argv[])
{
  if(chflags(argv[0], 0) != 0)
    return 1;
  return 0;
}
