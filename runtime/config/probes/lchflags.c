/* HAVE_LCHFLAGS: exits 0 when lchflags() exists and works (configure.ac: "for lchflags"). */
#include <sys/stat.h>
#include <unistd.h>
int main(int argc, char *argv[])
{
  if(lchflags(argv[0], 0) != 0)
    return 1;
  return 0;
}
