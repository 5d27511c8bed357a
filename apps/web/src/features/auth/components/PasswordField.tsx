import { LockOutlined } from '@ant-design/icons'
import { Form, type FormItemProps, Input } from 'antd'

type Props = Pick<FormItemProps, 'name' | 'label' | 'rules' | 'dependencies' | 'normalize'> & {
  placeholder?: string
  /** Whether browsers may fill in the saved password or should offer a new one. */
  autoComplete: 'current-password' | 'new-password'
  testId: string
}

/** A password field with the lock icon. */
export function PasswordField({ placeholder, autoComplete, testId, ...item }: Props) {
  return (
    <Form.Item {...item}>
      <Input.Password
        prefix={<LockOutlined />}
        placeholder={placeholder}
        autoComplete={autoComplete}
        data-testid={testId}
      />
    </Form.Item>
  )
}
