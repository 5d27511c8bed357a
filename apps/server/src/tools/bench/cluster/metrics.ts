// The servers' own count of device messages taken (aed_device_messages_in_total on GET
// /metrics), per transport: the MQTT messages the instances took from the shared subscription,
// which the devices' PUBACKs (the broker's) do not tell.

/** One instance's counts, or null when it did not answer. */
export async function messagesIn(base: string): Promise<{ mqtt: number; https: number } | null> {
  try {
    const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5000) })).text()
    const count = (t: string) =>
      Number(
        new RegExp(`^aed_device_messages_in_total\\{transport="${t}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0,
      )
    return { mqtt: count('mqtt'), https: count('https') }
  } catch {
    return null
  }
}

/** Every instance's MQTT count (0 for one that did not answer). */
export async function mqttIn(bases: string[]): Promise<number[]> {
  return Promise.all(bases.map(async (b) => (await messagesIn(b))?.mqtt ?? 0))
}
