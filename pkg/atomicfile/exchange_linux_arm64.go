package atomicfile

const sysRenameat2 = 276
