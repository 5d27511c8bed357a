import { MobileOutlined } from '@ant-design/icons'
import { Form, Input } from 'antd'
import { stripSpaces } from '../phone'

type Props = {
  name: string
  /** The numbers this form accepts. */
  pattern: RegExp
  /** The message when the number does not match. */
  invalid: string
  placeholder: string
  autoComplete?: string
  testId: string
}

/** A mobile-number field: spaces dropped as typed, the number checked against `pattern`. */
export function PhoneField({ name, pattern, invalid, placeholder, autoComplete, testId }: Props) {
  return (
    <Form.Item
      name={name}
      normalize={stripSpaces}
      rules={[
        {
          validator: (_, value: unknown) =>
            pattern.test(String(stripSpaces(value ?? '')))
              ? Promise.resolve()
              : Promise.reject(new Error(invalid)),
        },
      ]}
    >
      <Input
        prefix={<MobileOutlined />}
        placeholder={placeholder}
        maxLength={11}
        autoComplete={autoComplete}
        data-testid={testId}
      />
    </Form.Item>
  )
}
