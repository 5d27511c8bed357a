import { DownOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons'
import { Button, Col, Form, Row, Space } from 'antd'
import { type KeyboardEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Filters } from '../DataTable/listParams'
import { FilterControl } from './FilterControl'
import { emptyFormValues, type FormValues, hasHiddenValue, toFilters, toFormValues } from './filterValues'
import type { FilterField } from './types'

export const GRID_COLUMNS = 24
export const DEFAULT_SPAN = 6

type Props = {
  fields: FilterField[]
  /** Unlabelled single or multi selects shown when the form is expanded. */
  extraFields?: FilterField[]
  /** The current filters (from the URL). */
  values: Filters
  onSearch: (filters: Filters) => void
  /** Called after the fields are cleared: the caller's refresh. */
  onReset: () => void
  span?: number
}

/** The fields that fit the first row at `span` columns each. */
function firstRow(fields: readonly FilterField[], span: number) {
  let used = 0
  return fields.filter((f) => {
    used += f.span ?? span
    return used <= GRID_COLUMNS
  })
}

/** A search bar from field definitions: 搜索 and 重置, Enter searches, an arrow when it needs a second row. */
export function FilterForm({
  fields,
  extraFields = [],
  values,
  onSearch,
  onReset,
  span = DEFAULT_SPAN,
}: Props) {
  const { t } = useTranslation()
  const [form] = Form.useForm<FormValues>()
  const all = [...fields, ...extraFields]
  const visible = firstRow(fields, span)
  const overflow = visible.length < fields.length
  const [expanded, setExpanded] = useState(() => hasHiddenValue(fields.slice(visible.length), values))
  const [labels, setLabels] = useState<Record<string, string>>({})
  const [resets, setResets] = useState(0)
  const valuesKey = JSON.stringify(values)

  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL filters, by value
  useEffect(() => {
    form.setFieldsValue({ ...emptyFormValues(all), ...toFormValues(all, values) })
  }, [valuesKey, form])

  const shown = overflow && !expanded ? visible : fields
  const showExtra = extraFields.length > 0 && (!overflow || expanded)

  const search = async () => {
    const ok = await form.validateFields().then(
      () => true,
      () => false,
    )
    if (ok) onSearch(toFilters(all, form.getFieldsValue(true)))
  }
  const reset = () => {
    form.resetFields()
    form.setFieldsValue(emptyFormValues(all))
    setLabels({})
    setResets((n) => n + 1)
    onReset()
  }
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || (e.target as HTMLElement).getAttribute('aria-expanded') === 'true') return
    e.preventDefault()
    void search()
  }

  const item = (f: FilterField, withLabel: boolean) => (
    <Col key={f.name} span={f.span ?? span}>
      <Form.Item
        name={f.name}
        label={withLabel ? f.title : undefined}
        rules={[
          ...(f.rules ?? []),
          ...(f.maxLength ? [{ max: f.maxLength, message: t('filter.tooLong', { max: f.maxLength }) }] : []),
        ]}
        labelCol={withLabel ? { span: 7 } : undefined}
        wrapperCol={withLabel ? { span: 17 } : { span: 24 }}
      >
        <FilterControl
          field={f}
          label={labels[f.name]}
          onLabel={(l) => setLabels((old) => ({ ...old, [f.name]: l }))}
        />
      </Form.Item>
    </Col>
  )

  return (
    <Form
      form={form}
      className="filter-form"
      onKeyDown={onKeyDown}
      onFinish={search}
      data-testid="filter-form"
    >
      <Row gutter={16} key={resets}>
        {shown.map((f) => item(f, true))}
        {showExtra && extraFields.map((f) => item(f, false))}
        <Col flex="auto" className="filter-form-actions">
          <Space>
            <Button
              type="primary"
              icon={<SearchOutlined />}
              onClick={() => void search()}
              data-testid="filter-search"
            >
              {t('filter.search')}
            </Button>
            <Button onClick={reset} data-testid="filter-reset">
              {t('filter.reset')}
            </Button>
            {overflow && (
              <Button type="link" onClick={() => setExpanded((v) => !v)} data-testid="filter-toggle">
                {expanded ? t('filter.collapse') : t('filter.expand')}
                {expanded ? <UpOutlined /> : <DownOutlined />}
              </Button>
            )}
          </Space>
        </Col>
      </Row>
    </Form>
  )
}
