/** One server, however its address was typed (a trailing slash, letter case in the host). */
export function sameServer(a: string, b: string): boolean {
  const normal = (address: string) => {
    try {
      return new URL(address.trim()).href.replace(/\/+$/, '');
    } catch {
      return address.trim();
    }
  };
  return normal(a) === normal(b);
}
