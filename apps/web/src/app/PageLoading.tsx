import { Spin } from 'antd'

/** Shown while a page's chunk loads. */
export function PageLoading() {
  return <Spin className="page-loading" size="large" />
}
