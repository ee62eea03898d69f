/* Placeholder until the server lands. */
#include <stdio.h>

int main(void)
{
    fputs("puzzled: the server is not built yet\n", stderr);
    return 1;
}
