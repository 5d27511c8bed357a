import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RescueApp } from './RescueApp'
import './rescue.css'

// /rescue/{token}: the token is the whole permission (no sign-in), taken from the path as sent.
const token = decodeURIComponent(/^\/rescue\/([^/?#]*)/.exec(location.pathname)?.[1] ?? '')

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RescueApp token={token} />
  </StrictMode>,
)
