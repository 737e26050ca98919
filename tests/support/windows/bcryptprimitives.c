/*
 * Test-only stand-in for Windows' bcryptprimitives.dll, for Wine 8 (Debian
 * 12), which lacks it. Rust's standard library (1.78 and newer) takes its
 * random numbers from ProcessPrng in that DLL; Windows 10 and 11 have it,
 * Wine has it from 9.0. Here ProcessPrng asks BCryptGenRandom, which Wine 8
 * has, for the same bytes. Never shipped: scripts/test-windows puts it
 * beside the programs it runs under Wine.
 */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
