/* nosym.c - a shared library that does not export sel_get_impl: selcheck
 * must refuse it at setup with exit status 2 (harness/t/run.sh).
 */
int not_select(void);

int not_select(void)
{
    return 42;
}
