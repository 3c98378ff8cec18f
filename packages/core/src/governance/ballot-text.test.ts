import { expect, test } from 'vitest'
import { ballotText } from './ballot-text.ts'

const CHOICES = ['Library', 'Garden', 'Kitchen']

test('behavior: a ranked ballot reads in the voter’s order, numbered', () => {
  expect(ballotText('ranked-choice', CHOICES, { choices: [1, 3, 2], power: '5' })).toBe(
    '1. Library · 2. Kitchen · 3. Garden',
  )
})

test('behavior: weights read as shares of the voter’s power, split as the tally splits it (largest remainder), adding up to 100 %', () => {
  expect(ballotText('weighted', CHOICES, { choices: [1, 2], weights: [3, 2], power: '1250' })).toBe(
    'Library 60.00 % · Garden 40.00 %',
  )
  // 1 unit of power split 1 : 1 goes whole to the lower choice number (weightedAllocation), listed second
  // here, as the tally counts it.
  expect(ballotText('quadratic', CHOICES, { choices: [3, 1], weights: [1, 1], power: '1' })).toBe(
    'Kitchen 0.00 % · Library 100.00 %',
  )
  // Three equal weights of 10,000 units: 3334 + 3333 + 3333.
  expect(ballotText('weighted', CHOICES, { choices: [1, 2, 3], weights: [7, 7, 7], power: '10000' })).toBe(
    'Library 33.34 % · Garden 33.33 % · Kitchen 33.33 %',
  )
  // Without power the weights alone say what the voter asked for.
  expect(ballotText('weighted', CHOICES, { choices: [2, 3], weights: [1, 3], power: '0' })).toBe(
    'Garden 25.00 % · Kitchen 75.00 %',
  )
})

test('behavior: other kinds list the picked choices', () => {
  expect(ballotText('approval', CHOICES, { choices: [1, 3], power: '5' })).toBe('Library, Kitchen')
  expect(ballotText('basic', ['For', 'Against', 'Abstain'], { choices: [2], weights: [], power: '5' })).toBe(
    'Against',
  )
})
