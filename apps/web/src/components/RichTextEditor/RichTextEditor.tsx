import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons'
import { Button, Tooltip } from 'antd'
import { type ReactNode, useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'

type Props = {
  id?: string
  value?: string
  onChange?: (html: string) => void
  disabled?: boolean
  placeholder?: string
}
type Command = { key: string; icon: ReactNode; run: () => void }

/** A small rich-text editor (bold, italic, underline, heading, lists, links); the server sanitises the HTML. */
export function RichTextEditor({ id, value = '', onChange, disabled, placeholder }: Props) {
  const { t } = useTranslation()
  const box = useRef<HTMLDivElement>(null)

  // Only outside changes are written back, so the caret stays where the user types.
  useEffect(() => {
    if (box.current && box.current.innerHTML !== value) box.current.innerHTML = value
  }, [value])

  const emit = () => onChange?.(box.current?.innerHTML === '<br>' ? '' : (box.current?.innerHTML ?? ''))
  const exec = (command: string, arg?: string) => {
    box.current?.focus()
    document.execCommand(command, false, arg)
    emit()
  }
  const commands: Command[] = [
    { key: 'bold', icon: <BoldOutlined />, run: () => exec('bold') },
    { key: 'italic', icon: <ItalicOutlined />, run: () => exec('italic') },
    { key: 'underline', icon: <UnderlineOutlined />, run: () => exec('underline') },
    { key: 'heading', icon: <span className="rte-heading">H</span>, run: () => exec('formatBlock', 'h3') },
    { key: 'ordered', icon: <OrderedListOutlined />, run: () => exec('insertOrderedList') },
    { key: 'unordered', icon: <UnorderedListOutlined />, run: () => exec('insertUnorderedList') },
    {
      key: 'link',
      icon: <LinkOutlined />,
      run: () => {
        const url = window.prompt(t('editor.linkPrompt'), 'https://')
        if (url && /^https?:\/\//i.test(url)) exec('createLink', url)
      },
    },
    { key: 'clear', icon: <ClearOutlined />, run: () => exec('removeFormat') },
  ]

  return (
    <div className={disabled ? 'rte rte-disabled' : 'rte'}>
      <div className="rte-toolbar">
        {commands.map((c) => (
          <Tooltip key={c.key} title={t(`editor.${c.key}`)}>
            <Button
              type="text"
              size="small"
              icon={c.icon}
              disabled={disabled}
              onMouseDown={(e) => e.preventDefault()}
              onClick={c.run}
              aria-label={t(`editor.${c.key}`)}
            />
          </Tooltip>
        ))}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a contentEditable box is the editing surface */}
      <div
        id={id}
        ref={box}
        className="rte-content"
        role="textbox"
        aria-multiline="true"
        tabIndex={0}
        contentEditable={!disabled}
        suppressContentEditableWarning
        data-placeholder={placeholder}
        onInput={emit}
        onBlur={emit}
        data-testid="rich-text"
      />
    </div>
  )
}
