import { dynsecLogin } from '../../../modules/gateway/mqtt-auth.ts'
import type { BenchDevice } from '../alarm/types.ts'

/** A device's static account on Mosquitto under MQTT_AUTH=mosquitto-dynsec, as the servers make it. */
export function deviceLogin(d: BenchDevice): { username: string; password: string } {
  return dynsecLogin(d.secret, d.sn)
}
