import type { AgencyNode } from '@aed/contracts/agency'
import { agencyOptions } from '../../lib/agencyOptions'
import type { FilterField, FilterOption } from './types'

/** A text filter; the lists cut their text filters at 50 characters unless told otherwise. */
export const textFilter = (
  name: string,
  title: string,
  placeholder: string,
  maxLength = 50,
): FilterField => ({
  name,
  title,
  type: 'input',
  placeholder,
  maxLength,
})

/** A pick of one value; the placeholder, when given, names what no choice means. */
export const selectFilter = (
  name: string,
  title: string,
  options: FilterOption[],
  placeholder?: string,
): FilterField => ({ name, title, type: 'select', options, ...(placeholder ? { placeholder } : {}) })

/** A pick of one value, searchable by its label. */
export const searchFilter = (name: string, title: string, options: FilterOption[]): FilterField => ({
  name,
  title,
  type: 'select_search',
  options,
})

/** A searchable pick of one organisation of the tree (`agency_id` unless named otherwise). */
export const agencyFilter = (title: string, tree: readonly AgencyNode[], name = 'agency_id'): FilterField =>
  searchFilter(name, title, agencyOptions(tree))

/** The field when `shown`, else nothing: for filters that only some members' menus have. */
export const filterIf = (shown: boolean, field: FilterField): FilterField[] => (shown ? [field] : [])
