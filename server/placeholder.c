/* Placeholder so the server library has a source until the real server lands. */
int server_placeholder(void);
int server_placeholder(void)
{
    return 0;
}
