/* HAVE_ALIGNED_REQUIRED: exits 0 when an int can be read from an odd address
   (configure.ac: "aligned memory access is required"). */
int main(void)
{
    char s[16];
    int i, *p1, *p2;
    for (i=0; i < 16; i++)
        s[i] = i;
    p1 = (int*)(s+1);
    p2 = (int*)(s+2);
    if (*p1 == *p2)
        return 1;
    return 0;
}
