/* HAVE_BROKEN_NICE: exits 0 when nice() returns success/failure instead of the new
   priority (configure.ac: "for broken nice()"). */
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	int val1 = nice(1);
	if (val1 != -1 && val1 == nice(2))
		exit(0);
	exit(1);
}
