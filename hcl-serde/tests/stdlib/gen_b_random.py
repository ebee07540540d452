#!/usr/bin/env python3
"""Random, mostly valid calls of the numeric, collection and conversion
functions, one per line: gen_b_random.py SEED COUNT > b_random.hclexprs,
then gen_expected.py b_random.hclexprs."""
import random, os, sys
random.seed(int(sys.argv[1])); n=int(sys.argv[2])
S=['"a"','"b"','"B"','"10"','"9"','""','"x y"']
N=['0','1','-1','2','3','0.5','-2.5','10','7']
def lst(g, lo=0, hi=4): return '[' + ', '.join(g() for _ in range(random.randint(lo,hi))) + ']'
def seqv():
    k=random.random()
    base = random.choice([lambda: lst(lambda: random.choice(S)), lambda: lst(lambda: random.choice(N)), lambda: lst(lambda: lst(lambda: random.choice(N),0,2))])()
    if k<0.3: return 'tolist(%s)'%base
    if k<0.45: return 'toset(%s)'%base
    return base
def mapv():
    keys=random.sample(['a','b','c','"1"','k','B'], random.randint(0,4))
    g=random.choice([lambda: random.choice(S), lambda: random.choice(N), lambda: lst(lambda: random.choice(N),0,2)])
    body='{'+', '.join('%s = %s'%(k,g()) for k in keys)+'}'
    return 'tomap(%s)'%body if random.random()<0.5 else body
num=lambda: random.choice(N)
idx=lambda: random.choice(['0','1','2','3'])
gens={
 'length':lambda:[random.choice([seqv,mapv])()],
 'concat':lambda:[seqv() for _ in range(random.randint(1,3))],
 'contains':lambda:[seqv(), random.choice(S+N)],
 'keys':lambda:[mapv()],'values':lambda:[mapv()],
 'merge':lambda:[mapv() for _ in range(random.randint(0,3))],
 'lookup':lambda:[mapv(), random.choice(['"a"','"b"','"k"','"1"']), random.choice(S+N)],
 'element':lambda:[seqv(), idx()],
 'flatten':lambda:[lst(lambda: random.choice([seqv, lambda: random.choice(N+S)])(),0,3)],
 'coalesce':lambda:[random.choice(S+N+['null']) for _ in range(random.randint(1,3))],
 'coalescelist':lambda:[seqv() for _ in range(random.randint(1,3))],
 'compact':lambda:[lst(lambda: random.choice(S+['null']))],
 'distinct':lambda:[seqv()],'reverse':lambda:[seqv()],'sort':lambda:[lst(lambda: random.choice(S))],
 'range':lambda:[num() for _ in range(random.randint(1,3))],
 'chunklist':lambda:[seqv(), idx()],
 'slice':lambda:[seqv(), idx(), idx()],
 'zipmap':lambda:[lst(lambda: random.choice(['"a"','"b"','"c"']),2,2), random.choice([lambda: lst(lambda: random.choice(N),2,2), lambda: 'tolist(%s)'%lst(lambda: random.choice(S),2,2)])()],
 'setproduct':lambda:[seqv() for _ in range(random.randint(2,3))],
 'setunion':lambda:[seqv() for _ in range(random.randint(1,3))],
 'setintersection':lambda:[seqv() for _ in range(random.randint(1,3))],
 'setsubtract':lambda:[seqv() for _ in range(2)],
 'setsymmetricdifference':lambda:[seqv() for _ in range(random.randint(1,3))],
 'min':lambda:[num() for _ in range(random.randint(1,3))],'max':lambda:[num() for _ in range(random.randint(1,3))],
 'abs':lambda:[num()],'ceil':lambda:[num()],'floor':lambda:[num()],'signum':lambda:[num()],
 'tolist':lambda:[seqv()],'toset':lambda:[seqv()],'tomap':lambda:[mapv()],'tostring':lambda:[random.choice(S+N+['true'])],
}
out=set()
while len(out)<n:
    f=random.choice(list(gens)); e='%s(%s)'%(f, ', '.join(gens[f]()))
    if random.random()<0.25: e=random.choice(['length(%s)','[for x in %s : x]','tolist(%s)','%s[0]'])%e
    out.add(e)
for e in sorted(out): print(e)
