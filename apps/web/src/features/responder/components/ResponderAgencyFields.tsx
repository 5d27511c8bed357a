import { Input, Radio } from 'antd'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'

type Props = {
  disabled: boolean
  /** The organisation's name: the member's own when registering, the responder's when editing. */
  agencyName: string
  /** Who registered and when (a new registration), or who updated last and when (an edit). */
  by: { label: string; name: string; dateLabel: string; date: string }
}

/** Shows a name in place of the form's id, read-only. */
function ReadOnlyText({ text, testId }: { text: string; testId: string }) {
  return <Input value={text} disabled data-testid={testId} />
}

/** Organisation (read-only), the bind-devices choice, and the registrant or updater with the date. */
export function ResponderAgencyFields({ disabled, agencyName, by }: Props) {
  const { t } = useTranslation()
  return (
    <>
      <FieldCol
        span={6}
        name="agency_id"
        label={t('responder.agency')}
        required={t('responder.required.agency')}
      >
        <ReadOnlyText text={agencyName} testId="responder-agency" />
      </FieldCol>
      <FieldCol
        span={6}
        name="status"
        label={t('responder.bindDevice')}
        required={t('responder.required.bindDevice')}
      >
        <Radio.Group
          disabled={disabled}
          options={[
            { value: 1, label: t('responder.yes') },
            { value: 0, label: t('responder.no') },
          ]}
          data-testid="responder-status"
        />
      </FieldCol>
      <FieldCol span={6} label={by.label}>
        <ReadOnlyText text={by.name} testId="responder-by" />
      </FieldCol>
      <FieldCol span={6} label={by.dateLabel}>
        <ReadOnlyText text={by.date} testId="responder-by-date" />
      </FieldCol>
    </>
  )
}
