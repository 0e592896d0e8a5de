/* For the tests under Wine only; never shipped. Rust's standard library
 * takes its random bytes from ProcessPrng in bcryptprimitives.dll, which
 * Windows 10 and later have and Debian's Wine 8.0 lacks: without it no
 * Rust program starts there. This DLL, put beside a test's .exe by
 * tools/cross/wine-run.sh, gives ProcessPrng from RtlGenRandom. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG part = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, part))
            return FALSE;
        data += part;
        length -= part;
    }
    return TRUE;
}
