import { Form } from 'antd'
import { stripSpaces } from '../phone'
import { SmsCodeInput } from './SmsCodeInput'

type Props = {
  /** The message when no code is entered. */
  required: string
  onSend: () => Promise<number | undefined>
  size?: 'large' | 'middle'
  testId: string
}

/** The form's `sms_code` field: a required code, spaces dropped, with its send button. */
export function SmsCodeField({ required, onSend, size, testId }: Props) {
  return (
    <Form.Item
      name="sms_code"
      normalize={stripSpaces}
      rules={[{ required: true, whitespace: true, message: required }]}
    >
      <SmsCodeInput size={size} onSend={onSend} testId={testId} />
    </Form.Item>
  )
}
