import { useState } from 'react'
import { appsFor, navigationUrl, type Target } from './navigation'
import type { Texts } from './texts'

/** 导航: opens a choice of map apps with walking directions to the next stop. */
export function Navigate({ target, label, t }: { target: Target; label: string; t: Texts }) {
  const [open, setOpen] = useState(false)
  return (
    <div className="navigate">
      <button type="button" className="btn btn-nav" aria-expanded={open} onClick={() => setOpen(!open)}>
        {label}
      </button>
      {open && (
        <ul className="nav-apps">
          {appsFor(navigator.userAgent).map((app) => (
            <li key={app}>
              <a href={navigationUrl(app, target)} target="_blank" rel="noreferrer">
                {t.apps[app]}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
