import { Card } from 'antd'
import type { ListState } from '../DataTable/useListState'
import { FilterForm } from '../FilterForm/FilterForm'
import type { FilterField } from '../FilterForm/types'

type Props = {
  list: ListState
  fields: FilterField[]
  extraFields?: FilterField[]
  span?: number
}

/** A list's filter form in its card: searching and resetting go to the list's URL state. */
export function FilterCard({ list, fields, extraFields, span }: Props) {
  return (
    <Card className="filter-card">
      <FilterForm
        fields={fields}
        extraFields={extraFields}
        values={list.filters}
        onSearch={list.search}
        onReset={list.refresh}
        span={span}
      />
    </Card>
  )
}
