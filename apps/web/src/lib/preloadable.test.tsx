import { render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { describe, expect, test } from 'vitest'
import { Preloaded, preloadable } from './preloadable.ts'

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>
const greetingModule = () => Promise.resolve({ Greeting })
const page = (code: ReturnType<typeof makeCode>) => (
  <Suspense fallback={<p>Loading</p>}>
    <Preloaded code={code} props={{ name: 'Ada' }} />
  </Suspense>
)
const makeCode = () => preloadable(greetingModule, (m) => m.Greeting)

describe('preloadable', () => {
  test('behavior: loaded ahead, the first render shows the component, never the fallback', async () => {
    const code = makeCode()
    await code.load()
    render(page(code))
    expect(screen.getByText('Hello Ada')).toBeTruthy()
    expect(screen.queryByText('Loading')).toBeNull()
  })

  test('behavior: not loaded, it suspends like React.lazy and then shows the component', async () => {
    const code = makeCode()
    render(page(code))
    expect(screen.getByText('Loading')).toBeTruthy()
    expect(await screen.findByText('Hello Ada')).toBeTruthy()
    expect(code.loaded).toBe(Greeting)
  })

  test('behavior: a failed load can be tried again', async () => {
    let attempts = 0
    const code = preloadable(
      () => (++attempts === 1 ? Promise.reject(new Error('offline')) : greetingModule()),
      (m) => m.Greeting,
    )
    await expect(code.load()).rejects.toThrow('offline')
    await code.load()
    expect(code.loaded).toBe(Greeting)
    expect(attempts).toBe(2)
  })
})
