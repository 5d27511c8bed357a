import { Tag } from 'antd'

/** The spec's status colours: normal green, warning orange, fault purple, offset red, offline grey. */
export const STATUS_COLORS: Record<number, string> = {
  0: 'green',
  1: 'orange',
  2: 'purple',
  3: 'red',
  4: 'default',
}

/** A device's status with the server's status_text. */
export function DeviceStatusTag({ status, text }: { status: number; text: string }) {
  return (
    <Tag color={STATUS_COLORS[status] ?? 'default'} data-testid={`status-${status}`}>
      {text}
    </Tag>
  )
}
