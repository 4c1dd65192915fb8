/* HAVE_BROKEN_POLL: exits 1 when poll() on a closed descriptor reports POLLNVAL, as it
   should; exits 0 when it sets errno instead (configure.ac: "for broken poll()"). */
#include <poll.h>
#include <unistd.h>
int main(void)
{
    struct pollfd poll_struct = { 42, POLLIN|POLLPRI|POLLOUT, 0 };
    int poll_test;

    close (42);

    poll_test = poll(&poll_struct, 1, 0);
    if (poll_test < 0)
        return 0;
    else if (poll_test == 0 && poll_struct.revents != POLLNVAL)
        return 0;
    else
        return 1;
}
