/** The tile's comparison line: which way net recovered moved against last month, and by how much. */
export interface RecoveredChange {
  /** Up is good news (green), down bad (red). */
  tone: 'up' | 'down' | 'flat';
  text: string;
}

export function recoveredChange(changePercent: number | null): RecoveredChange {
  if (changePercent === null) return { tone: 'flat', text: 'no net recovered last month' };
  const abs = Math.abs(changePercent).toFixed(1);
  if (changePercent > 0) return { tone: 'up', text: `up ${abs}% vs last month` };
  if (changePercent < 0) return { tone: 'down', text: `down ${abs}% vs last month` };
  return { tone: 'flat', text: 'same as last month' };
}
