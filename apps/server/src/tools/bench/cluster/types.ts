// What the cluster bench's phases hand each other.

export type ClusterBenchOptions = {
  /** MQTT devices, each on a connection of its own to Mosquitto. */
  devices: number
  /** Devices sending signed HTTPS batches through nginx. */
  httpDevices: number
  /** Messages a second offered in all, and the part of it over MQTT. */
  rate: number
  mqttShare: number
  minutes: number
  /** The first minutes of the run, left out of the memory growth. */
  warmUpMinutes: number
  consoles: number
  rescueEveryMs: number
  graceMs: number
  /** Server instances of each run, in order (2, then 1 with --compare). */
  servers: number[]
  /** HTTPS: messages a request, and kept-alive connections to nginx. */
  batch: number
  sockets: number
  /** How the devices' MQTT accounts reach the broker: pre-written into its dynamic-security file, or by the servers. */
  dynsec: 'file' | 'server'
  /** Working folder of the clusters (one sub-folder a run). */
  dir: string
  /** Where the memory CSV and chart go. */
  out: string
  soak: boolean
  keep: boolean
}

/** What one run measured, for the report and the comparison. */
export type RunResult = {
  servers: number
  /** Seconds the load ran. */
  secs: number
  /** Messages stored by the servers a second over the run (MQTT from their metrics, HTTPS acknowledged), and each part. */
  stored: number
  storedMqtt: number
  storedHttp: number
  /** MQTT messages the servers took, by instance. */
  mqttByInstance: number[]
  offered: number
  lines: [string, string][]
}
