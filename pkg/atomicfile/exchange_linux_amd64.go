package atomicfile

const sysRenameat2 = 316
