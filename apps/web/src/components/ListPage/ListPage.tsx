import type { ReactNode } from 'react'
import type { ListState } from '../DataTable/useListState'
import type { FilterField } from '../FilterForm/types'
import { type ListAdd, ListCard } from '../ListCard/ListCard'
import { FilterCard } from './FilterCard'

type Props = {
  testId: string
  list: ListState
  fields: FilterField[]
  title: ReactNode
  add?: ListAdd | null | false
  /** The card's action when there is no add button (an export). */
  extra?: ReactNode
  /** The list itself, usually a DataTable of `list`. */
  children: ReactNode
  /** The page's dialogs, after the list. */
  dialogs?: ReactNode
}

/** A list page: the filter card, then the titled card of the list with its add button, then the dialogs. */
export function ListPage({ testId, list, fields, title, add, extra, children, dialogs }: Props) {
  return (
    <div className="page" data-testid={testId}>
      <FilterCard list={list} fields={fields} />
      <ListCard title={title} add={add} extra={extra}>
        {children}
      </ListCard>
      {dialogs}
    </div>
  )
}
