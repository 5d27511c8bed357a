import { useParams, useSearchParams } from 'react-router'
import { ExceptionPage } from './ExceptionPage'

/** /exception/500: shows the errorMsg route param or query, else the default text. */
export function ServerErrorPage() {
  const params = useParams()
  const [query] = useSearchParams()
  const errorMsg = params.errorMsg || query.get('errorMsg') || undefined
  return <ExceptionPage status="500" message={errorMsg} />
}
