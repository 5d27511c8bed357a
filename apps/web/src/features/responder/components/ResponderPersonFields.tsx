import { RESPONDER_PHONE } from '@aed/contracts/responder'
import { DatePicker, Input, Radio } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { useDict } from '../../../lib/useDict'

type Props = {
  editing: boolean
  disabled: boolean
  /** Called with an 11-digit phone typed into a new registration. */
  onPhone: (phone: string) => void
}

/** The person: phone (looked up), email, name, gender, birth. */
export function ResponderPersonFields({ editing, disabled, onPhone }: Props) {
  const { t } = useTranslation()
  const dict = useDict()
  const required = (key: string) => t(`responder.required.${key}`)
  return (
    <>
      <FieldCol
        span={8}
        name="phone"
        label={t('responder.phone')}
        required={required('phone')}
        rules={[{ pattern: RESPONDER_PHONE, message: required('phonePattern') }]}
      >
        <Input
          maxLength={11}
          // The phone is the account's: an edit keeps it (the server refuses a change).
          disabled={disabled || editing}
          placeholder={required('phone')}
          onChange={(e) => {
            const phone = e.target.value.replace(/\s+/g, '')
            if (/^\d{11}$/.test(phone)) onPhone(phone)
          }}
          data-testid="responder-phone"
        />
      </FieldCol>
      <FieldCol span={8} name="email" label={t('responder.email')}>
        <Input
          maxLength={100}
          disabled={disabled}
          placeholder={required('email')}
          data-testid="responder-email"
        />
      </FieldCol>
      <FieldCol span={8} name="name" label={t('responder.name')} required={required('name')} whitespace>
        <Input
          maxLength={50}
          disabled={disabled}
          placeholder={required('name')}
          data-testid="responder-name"
        />
      </FieldCol>
      <FieldCol span={12} name="gender" label={t('responder.gender')} required={required('gender')}>
        <Radio.Group disabled={disabled} options={dict.options('gender')} data-testid="responder-gender" />
      </FieldCol>
      <FieldCol span={12} name="birth" label={t('responder.birth')} required={required('birth')}>
        <DatePicker
          disabled={disabled}
          style={{ width: '100%' }}
          placeholder={required('birth')}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          data-testid="responder-birth"
        />
      </FieldCol>
    </>
  )
}
