import { ExceptionPage } from './ExceptionPage'

export function NotFoundPage() {
  return <ExceptionPage status="404" />
}
