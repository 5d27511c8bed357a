import { Typography } from 'antd'
import dayjs from 'dayjs'

/** An expiry date, red once it has passed. */
export function ExpiryDate({ value }: { value: string }) {
  const expired = dayjs(value).isBefore(dayjs(), 'day')
  return expired ? <Typography.Text type="danger">{value}</Typography.Text> : value
}
