import { Progress } from 'antd'

/** The detail card's battery colours: above 9 full, above 5 low, else empty. */
export function batteryColor(level: number) {
  return level > 9 ? '#52c41a' : level > 5 ? '#faad14' : '#ff4d4f'
}

/** A battery percentage as a short bar, or the table's dash when the device never reported one. */
export function BatteryLevel({ value, empty }: { value: number | null; empty: string }) {
  if (value === null) return <>{empty}</>
  return (
    <Progress
      percent={value}
      size={[72, 8]}
      strokeColor={batteryColor(value)}
      format={(p) => `${p}%`}
      className="battery-level"
    />
  )
}
