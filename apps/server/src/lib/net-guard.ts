import dns from 'node:dns/promises'
import net from 'node:net'

// Push URLs are typed by organisations' administrators and fetched by the server: without this
// guard a webhook could reach the server's own network (SSRF).

const blocked = new net.BlockList()
for (const [addr, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv4')
}
for (const [addr, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6')
}

/** True for loopback, private, link-local, shared, multicast and reserved addresses (IPv4-mapped IPv6 too). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return isPrivateAddress(mapped[1])
  const family = net.isIP(address)
  if (family === 0) return true
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Whether a URL's host is loopback or private: an address literal by itself, `localhost` by name,
 * any other name by every address it resolves to now (a name that does not resolve is not
 * private here; delivery checks again at connect time).
 */
export async function hostIsPrivate(url: URL): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (net.isIP(host)) return isPrivateAddress(host)
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  try {
    const addresses = await dns.lookup(host, { all: true })
    return addresses.some((a) => isPrivateAddress(a.address))
  } catch {
    return false
  }
}
