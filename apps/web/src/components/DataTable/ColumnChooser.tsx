import { SettingOutlined } from '@ant-design/icons'
import { Button, Checkbox, Popover } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { columnKey } from './columnChoice'

type Props<T> = {
  columns: ColumnsType<T>
  hidden: readonly string[]
  always: readonly string[]
  onChange: (hidden: string[]) => void
  label: ReactNode
}

/** A button opening the table's column list: unticking a column hides it. */
export function ColumnChooser<T>({ columns, hidden, always, onChange, label }: Props<T>) {
  const { t } = useTranslation()
  const choosable = columns.filter((c) => !always.includes(columnKey(c)) && columnKey(c))
  const keys = choosable.map((c) => columnKey(c))
  const content = (
    <div className="column-chooser" data-testid="column-chooser">
      <Checkbox.Group
        value={keys.filter((k) => !hidden.includes(k))}
        onChange={(shown) => onChange(keys.filter((k) => !shown.includes(k)))}
        options={choosable.map((c) => ({
          value: columnKey(c),
          label: <span data-testid={`column-${columnKey(c)}`}>{c.title as ReactNode}</span>,
        }))}
      />
      <Button type="link" size="small" onClick={() => onChange([])} disabled={hidden.length === 0}>
        {t('table.showAll')}
      </Button>
    </div>
  )
  return (
    <Popover content={content} trigger="click" placement="bottomRight">
      <Button icon={<SettingOutlined />} data-testid="column-chooser-button">
        {label}
      </Button>
    </Popover>
  )
}
